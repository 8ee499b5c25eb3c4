from billing_bot.ledger import Ledger

ledger = Ledger.from_env()
