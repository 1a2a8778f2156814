// Command terraform-provider-tfwire is tfwire's end-to-end test provider: resources and data sources on
// terraform-plugin-framework (plus one resource written directly on terraform-plugin-go, for block nestings the
// framework cannot declare) that together use every schema shape a DynamicValue can carry, and one of each newer
// kind: a resource with an identity, a list resource, an action, an ephemeral resource and provider functions.
//
// It serves plugin protocol 6 like any framework provider, with one addition for the harness: when
// TFWIRE_PROTO_DATA_DIR is set, it becomes terraform-plugin-go's TF_LOG_SDK_PROTO_DATA_DIR (so only this provider
// writes there), every RPC is serialised (across processes too) and spaced by a millisecond so that no two captured
// files share terraform-plugin-go's millisecond-stamped name, and each written file is recorded with its RPC, type
// name and harness phase in index.jsonl beside the files. The values terraform-plugin-go does not write (resource
// identities, the events of streaming RPCs) are written by the capture itself in the same naming scheme.
package main

import (
	"flag"
	"log"
	"os"
	"syscall"

	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"google.golang.org/grpc"
)

// providerAddress is the source address scenarios use for this provider.
const providerAddress = "registry.opentofu.org/tfwire/tfwire"

func main() {
	capture, err := newCapture(os.Getenv("TFWIRE_PROTO_DATA_DIR"), os.Getenv("TFWIRE_PROTO_PHASE"))
	if err != nil {
		log.Fatal(err)
	}
	debug := flag.String("debug", "", "serve in debug mode under this source address")
	debugEnv := flag.String("debug-env", "", "with -debug: the file to write TF_REATTACH_PROVIDERS='…' into")
	flag.Parse()
	framework := providerserver.NewProtocol6(newProvider())
	factory := func() tfprotov6.ProviderServer {
		return &server{ProviderServer: framework(), blocks: blocksResource{}}
	}
	if *debug != "" {
		err := tf6server.Serve(*debug, factory, tf6server.WithManagedDebug(),
			tf6server.WithManagedDebugStopSignals([]os.Signal{os.Interrupt, syscall.SIGTERM}),
			tf6server.WithManagedDebugEnvFilePath(*debugEnv))
		if err != nil {
			log.Fatal(err)
		}
		return
	}
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: plugin.HandshakeConfig{
			ProtocolVersion:  6,
			MagicCookieKey:   "TF_PLUGIN_MAGIC_COOKIE",
			MagicCookieValue: "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
		},
		Plugins: plugin.PluginSet{
			"provider": &tf6server.GRPCProviderPlugin{GRPCProvider: factory, Name: providerAddress},
		},
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			opts = append(opts, grpc.MaxRecvMsgSize(256<<20), grpc.MaxSendMsgSize(256<<20))
			if capture != nil {
				opts = append(opts, grpc.UnaryInterceptor(capture.intercept), grpc.StreamInterceptor(capture.interceptStream))
			}
			return grpc.NewServer(opts...)
		},
	})
}
