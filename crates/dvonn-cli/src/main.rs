//! `dvonn`: the command line of the dvonn workspace (see the library crate
//! `dvonn_cli` for the subcommands).

fn main() -> std::process::ExitCode {
    dvonn_cli::main()
}
