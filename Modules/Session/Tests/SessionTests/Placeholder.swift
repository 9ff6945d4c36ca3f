// Placeholder: replaced when the SessionTests tests land.
