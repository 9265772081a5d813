"""Elections (RULES R80): offices, nominations, support and the vote."""
