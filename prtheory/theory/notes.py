"""Claims of this source document (see prtheory.theory)."""
