// Placeholder: replaced when the Session target lands.
