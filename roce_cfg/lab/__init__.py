"""SSH switch emulators on 127.0.0.1 for tests and pipeline rehearsals (``roce-cfg lab``)."""
