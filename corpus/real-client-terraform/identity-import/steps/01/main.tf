# Step 1: no resources; after.sh makes two things outside the client, to be imported by identity in the last step.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}
