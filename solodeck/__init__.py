"""solodeck: solve and analyse solo card games played with a standard deck."""
__version__ = "0.1.0"
