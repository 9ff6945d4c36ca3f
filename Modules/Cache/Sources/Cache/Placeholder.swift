// Placeholder: replaced when the Cache target lands.
