"""Verification: what raw tool outputs say about a machine, and the findings drawn from them."""
