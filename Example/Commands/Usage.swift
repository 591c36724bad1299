/// The help text.
enum Usage {
    static let text = """
        usage: swift run Example [options] [command]

        With no command, a short tour: the catalog, a search, the next page, one product,
        login, me, the access token expiring, me again (refreshed), logout.

        commands:
          products [--search <text>] [--page <n>]    list the catalog (10 a page), or search it
          product <id>                               show one product
          add --title <text> --price <amount>        create a product (the server echoes it)
          update <id> [--title <text>] [--price <amount>]
          delete <id>
          login <user> <password>                    sign in (the demo user: emilys emilyspass)
          me                                         show the signed-in user
          logout
          help

        options:
          --live <url>         use the server at <url> (start one with scripts/example-server)
          --staging            use the server named by ERRAND_EXAMPLE_STAGING_URL
          --record             with --live: run the tour and re-record Example/Recordings from it
          --recordings <dir>   replay (or record) the HAR files in <dir> instead
          --verbose            print the redacted request log to standard error

        Offline (the default), the answers come from Example/Recordings/*.har.
        The signed-in session is kept under $ERRAND_EXAMPLE_HOME (default ~/.errand-example).
        """
}
