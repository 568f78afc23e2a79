"""The player area: my next table, my parties and protocols, and what a locked login sees."""
