// Placeholder: replaced when the PricesTests tests land.
