"""The Textual front end. Only this package imports Textual."""
