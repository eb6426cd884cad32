"""Games written outside the rules kernel, as a user writes one: docs/kernel.md, "Adding a
game". Not part of the installed distribution; import them from the project's folder."""
