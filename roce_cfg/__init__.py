"""roce-cfg: intent -> switch configs, lint and push for lossless RoCEv2 GPU fabrics."""

__version__ = "0.1.0"
