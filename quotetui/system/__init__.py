"""What the operating system gives every layer above the domain: files written whole (``atomic.py``) and the
Ctrl+C flag (``interrupt.py``). Nothing here knows the database, a file format or a front end."""
