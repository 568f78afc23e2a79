"""seed_demo and the desk commands."""
