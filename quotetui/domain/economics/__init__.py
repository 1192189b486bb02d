"""The economics engine: pure, exact arithmetic over offers, scenarios and claims (DESIGN.md section 3).

Inputs and outputs are ``Decimal``; in between the engine works with exact rationals (``Fraction``) so
that unit conversions round-trip exactly. Results are rounded once, half-even, at the documented points
(:func:`quotetui.domain.economics.exact.dec`).
"""
