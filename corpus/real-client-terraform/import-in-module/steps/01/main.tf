terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}
