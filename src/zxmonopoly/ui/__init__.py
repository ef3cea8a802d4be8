"""The pygame window (``zxmonopoly play``)."""
