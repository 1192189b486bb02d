"""The CLI's command groups; ``quotetui.cli`` imports each only when one of its commands runs (``cli.COMMANDS``).
Each imports its services lazily."""
