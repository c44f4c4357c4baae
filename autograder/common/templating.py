"""The one Jinja2 environment of the course's pages (the class report, the students' feedback pages):
templates from autograder/common/templates/ (package data: the report's and the feedback page's),
(a name a template gets wrong fails loudly, never renders as nothing).

Every ``{{ value }}`` is escaped: ``finalize`` shows its control characters (terminal escapes, bidi
overrides) as escapes, as textsafe.py does, then writes it as ``html.escape`` does (``'`` as
``&#x27;``, the pages' bytes as they always were) and autoescape stays on behind it, so text from
a submission (a folder name, a message, a docstring) is shown as text, never run as markup or as
a template. Only a macro's output (markup built from escaped parts) passes through as it is.
"""

from __future__ import annotations

import html
from functools import cache

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from .textsafe import escape_controls
from .words import plural


def _escaped(value) -> Markup:
    if hasattr(value, "__html__"):  # a macro's output or a caller's block: already escaped
        return value
    # terminal escapes and bidi overrides shown as escapes too (a page is also read with cat or grep);
    # str() of a StrictUndefined raises
    return Markup(html.escape(escape_controls(str(value), keep="\t\n"), quote=True))


def number(value: float, spec: str = "g") -> str:
    """A number as the pages write it (``{:g}`` unless told: ``.2f``, ``.0f``)."""
    return format(value, spec)


@cache
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("autograder.common", "templates"),
        autoescape=select_autoescape(("html", "html.j2"), default_for_string=True, default=True),
        undefined=StrictUndefined,
        finalize=_escaped,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["num"] = number
    env.filters["count"] = plural  # {{ n|count("student") }}: "1 student", "2 students"
    return env


def render(template: str, **context) -> str:
    """``templates/<template>`` rendered with ``context``."""
    return environment().get_template(template).render(**context)
