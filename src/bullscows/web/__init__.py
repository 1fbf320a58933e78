"""The web app, as thin as ``cli``: it parses, calls the library and renders.

``app`` builds the ASGI application (FastAPI), ``games`` turns forms and JSON bodies into
library sessions and describes them, ``storage`` keeps their records (SQLAlchemy), ``api`` is
the JSON API, ``pages`` the HTML pages, ``explorer`` the decision-tree explorer and
``security`` the guards every request passes.
"""
