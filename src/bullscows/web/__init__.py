"""The web app, as thin as ``cli``: it parses, calls the library and renders.

``app`` builds the ASGI application (FastAPI), ``games`` turns forms and JSON bodies into
library sessions and describes them, ``storage`` keeps their records (SQLAlchemy) and
``common`` loads and commits them for ``api`` (the JSON API) and ``pages`` (the HTML pages);
``explorer`` is the decision-tree explorer, ``benching`` the strategies compared, ``analysis``
a game move by move, ``security`` the guards every request passes, and ``process`` runs the
server in a process of its own (tests, benchmark, screenshots).
"""

#: The longest ``--expire-hours``: a hundred years (of 365.25 days). Much more, and the moment
#: before which games are deleted falls before the year 1, which no date can be.
MAX_EXPIRE_HOURS = 100 * 8766
