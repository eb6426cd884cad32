"""Publishing the notebooks as a website: the Voilà server (`publish.serve`) and the landing
page's content (`publish.landing`). Not part of rules_kernel, which has no Jupyter imports."""
