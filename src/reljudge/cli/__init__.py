"""The ``reljudge`` command line: a thin layer over the library the app uses."""
