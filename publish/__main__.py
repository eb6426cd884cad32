"""`python -m publish`: the publishing mode (publish/serve.py), or with `--static DIR` the
static site (publish/static_site.py); see docs/publishing.md."""

import sys

if any(arg == "--static" or arg.startswith("--static=") for arg in sys.argv[1:]):
    from publish.static_site import main as static_main

    sys.exit(static_main(sys.argv[1:]))

from publish.serve import main  # noqa: E402  (the server's imports only when serving)

main()
