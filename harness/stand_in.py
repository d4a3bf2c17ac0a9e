"""A generated stand-in for Tiny Shakespeare: the same 65 characters in play-like lines,
for tests that need "the corpus" but are not about the real file (the real file is never
committed, and a contributor's laptop has no copy of it)."""

from __future__ import annotations

import random

# Tiny Shakespeare's alphabet: a newline, a space, 11 punctuation marks and digits, 52 letters.
ALPHABET = "\n !$&',-.3:;?ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
SPEAKERS = ("ROMEO", "JULIET", "MENENIUS", "First Citizen", "KING RICHARD III", "LADY ANNE")
PUNCTUATION = (",", ".", ";", ":", "?", "!", "-", "'", "&", "$", "3")
STAND_IN_CHARS = 120_000  # enough windows for every context the Train page offers


def stand_in_shakespeare(chars: int = STAND_IN_CHARS, seed: int = 0) -> str:
    """``chars`` characters of seeded play-like text over Tiny Shakespeare's 65 characters
    (every one of them occurs)."""
    rng = random.Random(seed)
    letters = ALPHABET[ALPHABET.index("A") :]
    parts = [ALPHABET + "\n\n"]  # every character once, so the vocabulary is the real one
    size = len(parts[0])
    while size < chars:
        words = [
            "".join(rng.choice(letters).lower() for _ in range(rng.randint(1, 8))) for _ in range(rng.randint(4, 12))
        ]
        words[0] = words[0].capitalize()
        line = f"{rng.choice(SPEAKERS)}:\n{' '.join(words)}{rng.choice(PUNCTUATION)}\n\n"
        parts.append(line)
        size += len(line)
    return "".join(parts)[:chars]
