"""quotetui: a terminal workbench for buying GPU capacity.

Kept deliberately empty of imports so that ``import quotetui`` is instant and pulls in neither
Textual nor SQLAlchemy; each layer is imported where it is used.
"""

__version__ = "0.1.0"
