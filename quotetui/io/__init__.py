"""Reading and writing files: the demo market, spreadsheets, raw logs, calendars."""
