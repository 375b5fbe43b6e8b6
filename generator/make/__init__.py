"""Making the kit: the declared outputs, the pipeline and its workers, MANIFEST.txt, the
all-or-nothing transaction, releases and the live preview."""
