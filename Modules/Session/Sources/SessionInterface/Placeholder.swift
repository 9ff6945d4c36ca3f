// Placeholder: replaced when the SessionInterface target lands.
