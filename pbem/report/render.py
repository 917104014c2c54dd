"""Templates to documents: Jinja2 (autoescaping, strict undefined) for HTML, WeasyPrint for PDF.

The templates live in ``templates/`` at the top of the repository; ``PBEM_TEMPLATES`` points elsewhere.
"""

from __future__ import annotations

import logging
import os
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

__all__ = ["TEMPLATES", "environment", "html", "pdf"]

TEMPLATES = Path(os.environ.get("PBEM_TEMPLATES", Path(__file__).resolve().parents[2] / "templates"))


@cache
def environment() -> Environment:
    """The one Jinja environment: autoescaping on for every template (text from logs is untrusted)."""
    return Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def html(template: str, **context: Any) -> str:
    """Render ``template`` with ``context``."""
    return environment().get_template(template).render(**context)


def pdf(document: str) -> bytes:
    """Typeset an HTML document as PDF (print stylesheet, page headers, numbers and contents)."""
    from weasyprint import HTML  # imported late: WeasyPrint loads Pango, which only PDF output needs

    logging.getLogger("weasyprint").setLevel(logging.ERROR)  # unsupported-CSS chatter is not the user's concern
    result: bytes = HTML(string=document, base_url=str(TEMPLATES)).write_pdf()
    return result
