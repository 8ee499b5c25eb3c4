"""A bot that condenses the day's support tickets into a digest."""
