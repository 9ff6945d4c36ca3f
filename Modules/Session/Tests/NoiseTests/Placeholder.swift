// Placeholder: replaced when the NoiseTests tests land.
