"""What pages share: the model catalogue (models.py), what every student of a server shares
read-only (resources.py: training slots, corpora, the shipped experiment) and the heads
experiment's written answer (verdict.py). Page packages import this package, never each other."""
