"""Pure domain layer: money, the GPU catalog, enumerations and errors.

Nothing here may import Textual, SQLModel/SQLAlchemy or openpyxl (an import-hygiene test checks).
"""
