"""Parsers for raw benchmark and inventory logs; ``detect.parse_log`` picks the format from the content."""
