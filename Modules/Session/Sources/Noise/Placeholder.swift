// Placeholder: replaced when the Noise target lands.
