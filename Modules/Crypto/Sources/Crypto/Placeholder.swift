// Placeholder: replaced when the Crypto target lands.
