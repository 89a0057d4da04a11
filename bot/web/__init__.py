"""The servers' web pages: read-only, served by aiohttp with Jinja2 templates, per server that
turned them on (``/config web:``), under ``/s/<key>/``."""
