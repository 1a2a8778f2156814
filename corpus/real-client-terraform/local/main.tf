# HashiCorp's local provider (v1.4.0: terraform-plugin-sdk v1, protocol 5): files, sensitive content, a data
# source reading back what a resource wrote, and a tfwire resource fed from it.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
    time   = { source = "hashicorp/time" }
    local  = { source = "hashicorp/local" }
  }
}

resource "local_file" "plain" {
  filename             = "out/plain.txt"
  content              = "line one\nline two, ünïcödé\n"
  file_permission      = "0644"
  directory_permission = "0755"
}

resource "local_file" "b64" {
  filename       = "out/binary.bin"
  content_base64 = base64encode("\u0000\u0001binary")
}

resource "local_file" "secret" {
  filename          = "out/secret.txt"
  sensitive_content = "do not show"
}

data "local_file" "read_back" {
  filename   = local_file.plain.filename
  depends_on = [local_file.plain]
}

resource "tfwire_item" "from_file" {
  name  = "from-file"
  value = data.local_file.read_back.content
}

output "file_id" {
  value = local_file.plain.id
}
