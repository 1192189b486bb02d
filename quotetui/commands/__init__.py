"""The CLI's command groups; ``quotetui.cli`` registers them. Each imports its services lazily."""
