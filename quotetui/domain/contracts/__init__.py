"""Contracts after signing: key dates and deadlines, SLA availability and credits, invoices against the
agreed price. Pure functions over plain values; the services feed them from the store."""
