// Placeholder: replaced when the SealTests tests land.
