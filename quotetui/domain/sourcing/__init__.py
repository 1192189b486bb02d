"""Sourcing: requirements, RFQs, answers, awards and negotiation briefs (issue 17)."""
