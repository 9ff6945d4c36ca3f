// Placeholder: replaced when the Prices target lands.
