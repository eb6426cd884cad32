"""`python -m publish`: the publishing mode (see publish/serve.py and docs/publishing.md)."""

from publish.serve import main

main()
