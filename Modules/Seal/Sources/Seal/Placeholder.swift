// Placeholder: replaced when the Seal target lands.
