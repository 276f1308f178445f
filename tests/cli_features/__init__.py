"""Helpers of cli_features_test.py: running the marrow binary, the shared assets, reading its
outputs (pose JSON, the native file, PNG). The checks themselves stay in the test script."""
