"""``python -m quotetui`` runs the same entry point as the ``quotetui`` console script."""

from quotetui.launch import main

if __name__ == "__main__":
    main()
