"""What the web application keeps for its handlers: the pages' data, the templates, and the
path the pages are reached under."""

from __future__ import annotations

import jinja2
from aiohttp import web

from bot.service.web import WebPages

PAGES: web.AppKey[WebPages] = web.AppKey("pages", WebPages)
TEMPLATES: web.AppKey[jinja2.Environment] = web.AppKey("templates", jinja2.Environment)
ROOT: web.AppKey[str] = web.AppKey("root", str)
