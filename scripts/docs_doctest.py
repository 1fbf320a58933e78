"""A griffe extension for the API reference: doctest examples in docstrings become code blocks.

The docstrings are plain text with ``>>>`` examples (run by the suite's doctests); Markdown
would read those lines as nested quotes. mkdocs.yml names this file in mkdocstrings' options.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence(text: str) -> str:
    """``text`` with each run of ``>>>`` lines and their output inside a ``pycon`` fence.

    >>> print(fence("Adds.\\n\\n>>> 1 + 1\\n2\\n\\nDone."))
    Adds.
    <BLANKLINE>
    ```pycon
    >>> 1 + 1
    2
    ```
    <BLANKLINE>
    Done.
    """
    lines, out, example = text.splitlines(), [], False
    for line in lines:
        starts = line.lstrip().startswith(">>>")
        if starts and not example:
            out.append("```pycon")
            example = True
        elif example and not line.strip():
            out.append("```")
            example = False
        out.append(line)
    if example:
        out.append("```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fences the doctest examples of every docstring as it is loaded."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence(obj.docstring.value)
