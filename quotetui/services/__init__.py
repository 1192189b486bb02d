"""Use cases shared by the CLI and the TUI: the only layer that combines store, io and domain."""
