"""The sign-off wing: a party's protocol, its signatures and PINs, its lock, printing and pages."""
